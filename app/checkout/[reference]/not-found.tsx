export default function CheckoutNotFound() {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col gap-3 px-4 py-10">
      <h1 className="text-2xl font-semibold">Payment not found</h1>
      <p className="text-slate-600">This payment link does not exist. Check the link you were given, or ask the business for a new one.</p>
    </main>
  );
}
