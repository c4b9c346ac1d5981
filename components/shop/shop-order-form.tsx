'use client';

import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { RadioChoice, TextInput } from '@/components/forms/form-controls';
import { Button } from '@/components/ui/button';
import { parseAmountText, toMinorUnits } from '@/lib/amount-text';

export interface ShopOrderFormProps {
  slug: string;
  presets: { amount: number; label: string }[];
  currency: string;
  minLabel: string;
  maxLabel: string;
  messageMax: number;
}

/** The fields the API may refuse, in the order the form shows them; any other refusal is one line over the button. */
const FIELDS = ['amount', 'recipient.name', 'recipient.phone_number', 'message', 'buyer.name', 'buyer'] as const;
type Field = (typeof FIELDS)[number];
const OTHER = 'custom';

/**
 * The buyer's order, sent to the shop's own JSON door (POST /api/shop/{slug}/orders), so the page and a
 * business's own page are held to the same checks and limits; then on to the hosted checkout.
 */
export function ShopOrderForm({ slug, presets, currency, minLabel, maxLabel, messageMax }: ShopOrderFormProps) {
  const t = useTranslations('Shop.form');
  const [choice, setChoice] = useState(presets[0] ? String(presets[0].amount) : OTHER);
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    let amount = Number(choice);
    if (choice === OTHER) {
      const typed = parseAmountText(text('custom_amount'));
      if (!typed.ok) return setErrors({ amount: t('errors.amount', { min: minLabel, max: maxLabel }) });
      amount = toMinorUnits(typed.text);
    }
    const contact = text('buyer_contact');
    const body = {
      amount,
      recipient: { name: text('recipient_name'), phone_number: text('recipient_phone') },
      ...(message.trim() ? { message } : {}),
      buyer: { name: text('buyer_name'), ...(contact.includes('@') ? { email: contact } : contact ? { phone_number: contact } : {}) },
    };
    setBusy(true);
    setErrors({});
    try {
      const res = await fetch(`/api/shop/${encodeURIComponent(slug)}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await res.json().catch(() => null);
      if (res.status === 201 && answer?.data?.checkout_url) {
        window.location.assign(answer.data.checkout_url);
        return;
      }
      setErrors(refusal(res.status, answer));
    } catch {
      setErrors({ form: t('errors.network') });
    }
    setBusy(false);
  }

  function refusal(status: number, answer: { message?: string; error?: unknown } | null): Partial<Record<Field | 'form', string>> {
    if (status === 429) return { form: t('errors.tooMany') };
    if (answer?.message === 'Limit exceeded') return { amount: t('errors.limit') };
    if (status === 400 && answer?.error && typeof answer.error === 'object') {
      const out: Partial<Record<Field, string>> = {};
      for (const key of Object.keys(answer.error)) {
        const field = FIELDS.find((f) => f === key || (f === 'buyer' && key.startsWith('buyer.') && key !== 'buyer.name'));
        if (field) out[field] = t(`errors.${fieldKey(field)}`, { min: minLabel, max: maxLabel, max_length: messageMax });
      }
      if (Object.keys(out).length) return out;
    }
    return { form: t('errors.failed') };
  }

  const error = (field: Field) =>
    errors[field] ? (
      <p id={`${fieldId(field)}-error`} className="mt-1 text-sm text-red-700">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" data-testid="shop-form">
      <fieldset className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <legend className="px-1 font-semibold">{t('amount')}</legend>
        <div className="mt-2 grid grid-cols-2 gap-2" role="radiogroup">
          {presets.map((p) => (
            <RadioChoice
              key={p.amount}
              name="amount_choice"
              value={String(p.amount)}
              checked={choice === String(p.amount)}
              onChange={() => setChoice(String(p.amount))}
            >
              <span className="font-semibold tabular-nums">{p.label}</span>
            </RadioChoice>
          ))}
          <RadioChoice name="amount_choice" value={OTHER} checked={choice === OTHER} onChange={() => setChoice(OTHER)}>
            {t('otherAmount')}
          </RadioChoice>
        </div>
        {choice === OTHER && (
          <label className="mt-3 block text-sm font-medium" htmlFor="amount">
            {t('typedAmount', { currency })}
            <TextInput id="amount" name="custom_amount" inputMode="decimal" autoComplete="off" invalid={!!errors.amount} />
          </label>
        )}
        <p className="mt-2 text-xs text-slate-600">{t('range', { min: minLabel, max: maxLabel })}</p>
        {error('amount')}
      </fieldset>

      <fieldset className="flex flex-col gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <legend className="px-1 font-semibold">{t('recipient')}</legend>
        <label className="block text-sm font-medium" htmlFor="recipient-name">
          {t('recipientName')}
          <TextInput id="recipient-name" name="recipient_name" autoComplete="off" maxLength={100} required invalid={!!errors['recipient.name']} />
        </label>
        {error('recipient.name')}
        <label className="block text-sm font-medium" htmlFor="recipient-phone">
          {t('recipientPhone')}
          <TextInput
            id="recipient-phone"
            name="recipient_phone"
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder="+251911234567"
            required
            invalid={!!errors['recipient.phone_number']}
          />
        </label>
        <p className="text-xs text-slate-600">{t('recipientPhoneHint')}</p>
        {error('recipient.phone_number')}
        <label className="block text-sm font-medium" htmlFor="message">
          {t('message')}
          <textarea
            id="message"
            name="message"
            rows={3}
            maxLength={messageMax}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
          />
        </label>
        <p className="text-right text-xs text-slate-600" aria-live="polite">
          {t('messageLeft', { count: messageMax - message.length })}
        </p>
        {error('message')}
      </fieldset>

      <fieldset className="flex flex-col gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <legend className="px-1 font-semibold">{t('buyer')}</legend>
        <label className="block text-sm font-medium" htmlFor="buyer-name">
          {t('buyerName')}
          <TextInput id="buyer-name" name="buyer_name" autoComplete="name" maxLength={100} required invalid={!!errors['buyer.name']} />
        </label>
        {error('buyer.name')}
        <label className="block text-sm font-medium" htmlFor="buyer-contact">
          {t('buyerContact')}
          <TextInput id="buyer-contact" name="buyer_contact" autoComplete="email" required invalid={!!errors.buyer} />
        </label>
        <p className="text-xs text-slate-600">{t('buyerContactHint')}</p>
        {error('buyer')}
      </fieldset>

      {errors.form && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
          {errors.form}
        </p>
      )}
      <Button type="submit" disabled={busy}>
        {busy ? t('sending') : t('pay')}
      </Button>
    </form>
  );
}

const fieldId = (field: Field) =>
  ({
    amount: 'amount',
    'recipient.name': 'recipient-name',
    'recipient.phone_number': 'recipient-phone',
    message: 'message',
    'buyer.name': 'buyer-name',
    buyer: 'buyer-contact',
  })[field];

const fieldKey = (field: Field) =>
  ({
    amount: 'amount',
    'recipient.name': 'recipientName',
    'recipient.phone_number': 'recipientPhone',
    message: 'message',
    'buyer.name': 'buyerName',
    buyer: 'buyer',
  })[field];
