import { Button } from '@/components/ui/button';

export interface TestPaymentButtonsProps {
  reference: string;
  totalLabel: string;
  action: (formData: FormData) => Promise<void>;
}

/** The sandbox stands in for the customer's card or wallet: each button is one outcome a processor could report. */
export function TestPaymentButtons({ reference, totalLabel, action }: TestPaymentButtonsProps) {
  return (
    <section aria-labelledby="test-mode-title" className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4">
      <h2 id="test-mode-title" className="flex items-center gap-2 font-semibold text-amber-900">
        <span className="rounded bg-amber-400 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-amber-950">Test mode</span>
        Simulated payment
      </h2>
      <p className="mt-1 text-sm text-amber-900">No real money moves. Choose the outcome the payment processor would report.</p>
      <form action={action} className="mt-4 flex flex-col gap-3">
        <input type="hidden" name="reference" value={reference} />
        <Button type="submit" name="outcome" value="success" variant="primary">
          Pay {totalLabel} (test)
        </Button>
        <Button type="submit" name="outcome" value="failed" variant="danger">
          Simulate failed payment (test)
        </Button>
        <Button type="submit" name="outcome" value="cancelled" variant="secondary">
          Cancel payment (test)
        </Button>
      </form>
    </section>
  );
}
