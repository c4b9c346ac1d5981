'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { parseAmountText, toMinorUnits } from '@/lib/amount-text';
import { unitsText } from '@/lib/money-text';
import type { ShopView } from '@/lib/shop/shop-settings';
import { CURRENCIES } from '@/lib/validation';
import { updateShop } from '@/server/actions/shop';
import { ShopHeader } from './shop-header';

const units = (text: string): number | null => {
  const parsed = parseAmountText(text);
  return parsed.ok ? toMinorUnits(parsed.text) : null;
};

/** The owner's shop: on or off, its address, mode, currency and amounts, its headline and colour, with a preview of its top. */
export function ShopSettingsForm({ shop, businessName, mode }: { shop: ShopView | null; businessName: string; mode: 'test' | 'live' }) {
  const t = useTranslations('ShopSettings');
  const errorText = useErrorText();
  const router = useRouter();
  const [headline, setHeadline] = useState(shop?.headline ?? '');
  const [color, setColor] = useState(shop?.color ?? '#047857');
  const [shopMode, setShopMode] = useState(shop?.mode ?? mode);
  const [slug, setSlug] = useState(shop?.slug ?? '');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    const presets = text('preset_amounts')
      .split(/[;\n]|,(?=\s)/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map(units);
    const input = {
      enabled: form.get('enabled') === 'on',
      mode: shopMode,
      slug,
      currency: text('currency'),
      preset_amounts: presets.map((p) => p ?? 0),
      min_amount: units(text('min_amount')) ?? 0,
      max_amount: units(text('max_amount')) ?? 0,
      headline: headline.trim() || null,
      color,
    };
    setBusy(true);
    setMessage(null);
    setFieldErrors({});
    const result = await updateShop(input);
    setBusy(false);
    if (!result.ok) {
      setFieldErrors(result.fieldErrors ?? {});
      setMessage({ tone: 'error', text: result.fieldErrors ? t('fix') : errorText(result) });
      return;
    }
    setMessage({ tone: 'success', text: t('saved') });
    router.refresh();
  }

  const minorText = (minor: number | undefined) => (minor === undefined ? '' : unitsText(minor));
  const fieldError = (name: string) => (fieldErrors[name] ? t('invalid') : undefined);

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 lg:grid-cols-2" aria-label={t('title')}>
      <div className="space-y-4">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" name="enabled" defaultChecked={shop?.enabled ?? false} className="h-4 w-4 accent-emerald-700" />
          {t('enabled')}
        </label>
        <TextField
          id="shop-slug"
          label={t('slug')}
          hint={t('slugHint')}
          value={slug}
          onChange={(e) => setSlug(e.target.value.toLowerCase())}
          error={fieldError('slug')}
        />
        <SelectField id="shop-mode" label={t('mode')} hint={t('modeHint')} value={shopMode} onChange={(e) => setShopMode(e.target.value as 'test' | 'live')}>
          <option value="test">{t('modes.test')}</option>
          <option value="live">{t('modes.live')}</option>
        </SelectField>
        <SelectField id="shop-currency" name="currency" label={t('currency')} defaultValue={shop?.currency ?? 'ETB'}>
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </SelectField>
        <TextField
          id="shop-presets"
          name="preset_amounts"
          label={t('presets')}
          hint={t('presetsHint')}
          defaultValue={(shop?.preset_amounts ?? []).map(unitsText).join('; ')}
          error={fieldError('preset_amounts')}
        />
        <div className="grid grid-cols-2 gap-3">
          <TextField
            id="shop-min"
            name="min_amount"
            label={t('min')}
            inputMode="decimal"
            defaultValue={minorText(shop?.min_amount)}
            error={fieldError('min_amount')}
          />
          <TextField
            id="shop-max"
            name="max_amount"
            label={t('max')}
            inputMode="decimal"
            defaultValue={minorText(shop?.max_amount)}
            error={fieldError('max_amount')}
          />
        </div>
        <TextField
          id="shop-headline"
          label={t('headline')}
          value={headline}
          maxLength={120}
          onChange={(e) => setHeadline(e.target.value)}
          error={fieldError('headline')}
        />
        <TextField id="shop-color" label={t('color')} type="color" value={color} onChange={(e) => setColor(e.target.value)} className="h-11 max-w-24 p-1" />
        {message && (
          <Notice tone={message.tone} testId="shop-settings-notice">
            {message.text}
          </Notice>
        )}
        <Button type="submit" disabled={busy} className="sm:w-auto">
          {busy ? t('saving') : t('save')}
        </Button>
      </div>
      <section aria-label={t('preview')} className="space-y-3">
        <p className="text-sm font-medium text-slate-700">{t('preview')}</p>
        <div className="rounded-2xl border border-slate-200 bg-slate-50 p-3" data-testid="shop-preview">
          <ShopHeader businessName={businessName} headline={headline.trim() || null} color={color} testMode={shopMode === 'test'} />
        </div>
        {shop?.enabled && shop.slug && (
          <a
            href={`/shop/${shop.slug}`}
            target="_blank"
            rel="noreferrer"
            className="text-sm font-medium text-emerald-800 underline underline-offset-2"
            data-testid="shop-link"
          >
            {t('open', { path: `/shop/${shop.slug}` })}
          </a>
        )}
      </section>
    </form>
  );
}
