/** Next.js runs this once per server before any request (`next start` and scripts/start.ts alike). */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { registerProviders } = await import('./lib/wire-providers');
  registerProviders();
}
