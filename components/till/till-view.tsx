'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import type { ActionResult } from '@/lib/actions/define-action';
import type { TillCard } from '@/lib/dashboard/till';
import type { SpendCodeRequired } from '@/lib/spend-codes/request-spend-code';
import { toMinorUnits } from '@/lib/amount-text';
import { isLocale } from '@/lib/i18n/locale';
import { captureAtTill, confirmAtTill, findAtTill, holdAtTill, redeemAtTill, voidAtTill } from '@/server/actions/till';
import { SpendCodeForm } from './spend-code-form';
import { TillHolds, TillKeypad, type TillKey } from './till-controls';
import { type Receipt, receiptOf, type Step, TillReceipt } from './till-receipt';

/** A step waiting for the cashier's yes (a large amount). */
interface Pending {
  step: Step;
  amount: number;
  run: (confirmed: boolean) => Promise<void>;
}

/** The counter: one field for a scan or a phone, the balance in large figures, a keypad, one tap per step, a receipt to print. */
export function TillView({ businessName }: { businessName: string }) {
  const t = useTranslations('Till');
  const asked = useLocale();
  const locale = isLocale(asked) ? asked : 'en';
  const errorText = useErrorText();
  const router = useRouter();
  const [query, setQuery] = useState('');
  const [cards, setCards] = useState<TillCard[]>([]);
  const [chosen, setChosen] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [receipt, setReceipt] = useState<Receipt | null>(null);
  /** A redemption or capture over the business's threshold, waiting for the cardholder's code. */
  const [waiting, setWaiting] = useState<SpendCodeRequired | null>(null);
  const submission = useRef(newSubmissionId());
  const findRef = useRef<HTMLInputElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const card = cards.find((c) => c.card_number === chosen) ?? null;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);

  useEffect(() => {
    if (receipt) document.getElementById('till-next')?.focus();
    else findRef.current?.focus();
  }, [receipt]);
  // A card found (or chosen among a phone's): the amount is next.
  useEffect(() => {
    if (chosen) amountRef.current?.focus();
  }, [chosen]);

  const fail = (result: Extract<ActionResult<unknown>, { ok: false }>) =>
    setError(result.fieldErrors ? Object.values(result.fieldErrors).join(' ') : errorText(result));

  const find = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setBusy(true);
    const result = await findAtTill({ query });
    setBusy(false);
    if (!result.ok) {
      setCards([]);
      setChosen(null);
      return fail(result);
    }
    setCards(result.data);
    setChosen(result.data.length === 1 ? result.data[0].card_number : null);
  };

  const refresh = async (cardNumber: string) => {
    const again = await findAtTill({ query: cardNumber });
    if (again.ok) setCards((now) => now.map((c) => again.data.find((n) => n.card_number === c.card_number) ?? c));
  };

  /** Runs a step; a large amount comes back asking for a yes, and the same submission runs again confirmed. */
  const perform = async (step: Step, minor: number, call: (confirmed: boolean) => Promise<ActionResult<Receipt | SpendCodeRequired>>) => {
    setError(null);
    const run = async (confirmed: boolean) => {
      setBusy(true);
      const result = await call(confirmed);
      setBusy(false);
      if (!result.ok && result.fieldErrors?.confirmed) return setPending({ step, amount: minor, run });
      setPending(null);
      if (!result.ok) return fail(result);
      submission.current = newSubmissionId();
      if ('confirmation_reference' in result.data) return setWaiting(result.data);
      setAmount('');
      setReceipt(result.data);
      if (card) await refresh(card.card_number);
      router.refresh();
    };
    await run(false);
  };

  const typedMinor = () => {
    try {
      return amount.trim() ? toMinorUnits(amount.trim()) : 0;
    } catch {
      return 0;
    }
  };

  const moneyStep = (step: 'redeem' | 'hold') => {
    if (!card) return;
    const minor = typedMinor();
    if (minor <= 0) {
      setError(t('enterAmount'));
      amountRef.current?.focus();
      return;
    }
    const input = { card_number: card.card_number, amount: amount.trim(), submission_id: submission.current };
    void perform(step, minor, async (confirmed) => {
      const result = step === 'redeem' ? await redeemAtTill({ ...input, confirmed }) : await holdAtTill({ ...input, confirmed });
      if (!result.ok) return result;
      const d = result.data;
      if ('confirmation_reference' in d || 'reference' in d) return { ok: true, data: 'confirmation_reference' in d ? d : receiptOf(d) };
      return {
        ok: true,
        data: { step, reference: d.hold_reference, cardNumber: d.card_number, currency: d.currency, amount: d.amount, balance: null, at: d.created_at },
      };
    });
  };

  const holdStep = (step: 'capture' | 'void', reference: string, held: number, currency: string) => {
    const minor = step === 'capture' && typedMinor() > 0 ? typedMinor() : held;
    void perform(step, minor, async (confirmed) => {
      const result =
        step === 'capture'
          ? await captureAtTill({
              hold_reference: reference,
              submission_id: submission.current,
              ...(typedMinor() > 0 && { amount: amount.trim() }),
              confirmed,
            })
          : await voidAtTill({ hold_reference: reference });
      if (!result.ok) return result;
      const d = result.data;
      if ('confirmation_reference' in d) return { ok: true, data: d };
      const spent = step === 'capture' ? d.captured_amount : d.amount;
      return {
        ok: true,
        data: { step, reference: d.hold_reference, cardNumber: d.card_number, currency, amount: spent, balance: null, at: d.ended_at ?? d.created_at },
      };
    });
  };

  /** The cardholder's code for the waiting spend: its receipt when it went through, else the refusal to show. */
  const confirmCode = async (code: string): Promise<string | null> => {
    if (!waiting) return null;
    const result = await confirmAtTill({ confirmation_reference: waiting.confirmation_reference, code });
    if (!result.ok) return result.fieldErrors ? Object.values(result.fieldErrors).join(' ') : errorText(result);
    setWaiting(null);
    setAmount('');
    setReceipt(receiptOf(result.data));
    if (card) await refresh(card.card_number);
    router.refresh();
    return null;
  };

  const press = (key: TillKey) => {
    setAmount((now) => (key === '⌫' ? now.slice(0, -1) : key === '.' && now.includes('.') ? now : `${now}${key}`));
  };

  const nextCustomer = () => {
    setReceipt(null);
    setWaiting(null);
    setCards([]);
    setChosen(null);
    setQuery('');
    setAmount('');
    setError(null);
  };

  if (receipt) return <TillReceipt receipt={receipt} businessName={businessName} money={money} onNext={nextCustomer} />;

  return (
    <div className="mx-auto max-w-md space-y-5">
      <form onSubmit={find} className="space-y-2">
        <label htmlFor="till-find" className="block text-sm font-medium text-slate-800">
          {t('findLabel')}
        </label>
        <div className="flex gap-2">
          <input
            ref={findRef}
            id="till-find"
            // biome-ignore lint/a11y/noAutofocus: the counter's first act is a scan, which types into the focused field.
            autoFocus
            autoComplete="off"
            inputMode="tel"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="block min-h-12 w-full rounded-lg border border-slate-400 px-3 text-lg"
          />
          <Button type="submit" block={false} disabled={busy || !query.trim()}>
            {t('find')}
          </Button>
        </div>
        <p className="text-xs text-slate-600">{t('findHint')}</p>
      </form>

      {error && (
        <Notice tone="error" testId="till-error">
          {error}
        </Notice>
      )}

      {cards.length > 1 && !card && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">{t('chooseCard')}</legend>
          {cards.map((c) => (
            <Button key={c.card_number} variant="secondary" onClick={() => setChosen(c.card_number)}>
              {c.currency} •••• {c.card_number.slice(-4)} · {money(c.available_amount, c.currency)}
            </Button>
          ))}
        </fieldset>
      )}

      {card && (
        <section aria-label={t('cardLabel')} className="space-y-4">
          <div className="rounded-xl bg-slate-900 p-5 text-white">
            <p className="text-sm text-slate-300">
              {card.name || t('noName')} · •••• {card.card_number.slice(-4)}
            </p>
            <p className="mt-1 text-sm text-slate-300">{t('available')}</p>
            <p className="break-words text-4xl font-bold tabular-nums sm:text-5xl" data-testid="till-balance">
              {money(card.available_amount, card.currency)}
            </p>
            {card.held_amount > 0 && <p className="mt-1 text-sm text-amber-300">{t('held', { amount: money(card.held_amount, card.currency) })}</p>}
          </div>

          {waiting ? (
            <SpendCodeForm
              amountText={money(waiting.amount, waiting.currency)}
              expiresAt={waiting.expires_at}
              confirm={confirmCode}
              onCancel={() => setWaiting(null)}
            />
          ) : (
            <>
              <div>
                <label htmlFor="till-amount" className="block text-sm font-medium text-slate-800">
                  {t('amountLabel', { currency: card.currency })}
                </label>
                <input
                  ref={amountRef}
                  id="till-amount"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0.00"
                  value={amount}
                  onChange={(e) => setAmount(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      moneyStep('redeem');
                    }
                  }}
                  className="mt-1 block min-h-14 w-full rounded-lg border border-slate-400 px-3 text-right text-3xl tabular-nums"
                />
                <p className="mt-1 text-xs text-slate-600">{t('amountHint')}</p>
              </div>

              <TillKeypad onKey={press} />

              <div className="grid grid-cols-2 gap-3">
                <Button className="min-h-14 text-lg" disabled={busy} onClick={() => moneyStep('redeem')}>
                  {t('redeem')}
                </Button>
                <Button className="min-h-14 text-lg" variant="secondary" disabled={busy} onClick={() => moneyStep('hold')}>
                  {t('hold')}
                </Button>
              </div>
            </>
          )}

          <TillHolds
            holds={card.holds}
            busy={busy}
            money={money}
            onCapture={(h) => holdStep('capture', h.hold_reference, h.amount, h.currency)}
            onVoid={(h) => holdStep('void', h.hold_reference, h.amount, h.currency)}
          />
        </section>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending ? t(`confirm.${pending.step}`) : ''}
        confirmLabel={pending && card ? t('confirmYes', { amount: money(pending.amount, card.currency) }) : ''}
        cancelLabel={t('goBack')}
        pending={busy}
        onConfirm={() => pending && void pending.run(true)}
        onClose={() => setPending(null)}
      >
        {pending && card && <p className="text-2xl font-semibold tabular-nums text-slate-900">{money(pending.amount, card.currency)}</p>}
      </ConfirmDialog>
    </div>
  );
}
