import { buttonClass } from '@/components/ui/button';

/** Live checkout: the customer pays on Chapa's page and comes back here; until verify settles it, they can check again. */
export function LiveCheckoutLink({ chapaUrl, reference, totalLabel }: { chapaUrl: string; reference: string; totalLabel: string }) {
  return (
    <div className="flex flex-col gap-3">
      <a href={chapaUrl} className={`${buttonClass()} w-full text-center`} data-testid="pay-with-chapa">
        Pay {totalLabel} with Chapa
      </a>
      <p className="text-sm text-slate-600">
        You will pay on Chapa&apos;s secure page (telebirr, CBE Birr, M-Pesa, cards and banks) and come back here. Already paid?{' '}
        <a className="font-medium text-emerald-800 underline" href={`/checkout/${reference}?from=chapa`}>
          Check the payment
        </a>
        .
      </p>
    </div>
  );
}
