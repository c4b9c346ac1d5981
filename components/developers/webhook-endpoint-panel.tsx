'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import { revealWebhookSecret, rotateWebhookSecret, sendTestWebhook, setWebhookUrl } from '@/server/actions/developers';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/field';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import { setWebhookUrlSchema, type SetWebhookUrlInput } from '@/lib/actions/developer.validation';
import type { WebhookEndpointView } from '@/lib/dashboard/get-webhook-endpoint';
import { SecretBox } from './secret-box';

export function WebhookEndpointPanel({ endpoint, mode }: { endpoint: WebhookEndpointView | null; mode: string }) {
  const t = useTranslations('DevelopersWebhook');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [testResult, setTestResult] = useState<{ ok: boolean; text: string; body: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const { register, handleSubmit, setError, formState } = useForm<SetWebhookUrlInput>({
    resolver: zodResolver(setWebhookUrlSchema),
    defaultValues: { url: endpoint?.url ?? '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await setWebhookUrl(values);
    if (result.ok) {
      setSecret(null);
      setMessage({ tone: 'success', text: t('saved', { mode: shell(`modes.${mode === 'live' ? 'live' : 'test'}`), url: result.data.url }) });
      router.refresh();
      return;
    }
    if (result.fieldErrors?.url) setError('url', { message: result.fieldErrors.url }, { shouldFocus: true });
    else setMessage({ tone: 'error', text: errorText(result) });
  });

  const reveal = () =>
    startTransition(async () => {
      const result = await revealWebhookSecret({});
      if (result.ok) setSecret(result.data.secret);
      else setMessage({ tone: 'error', text: errorText(result) });
    });

  const rotate = () =>
    startTransition(async () => {
      const result = await rotateWebhookSecret({});
      setConfirmRotate(false);
      if (!result.ok) return setMessage({ tone: 'error', text: errorText(result) });
      setSecret(result.data.secret);
      setMessage({ tone: 'success', text: t('rotated') });
      router.refresh();
    });

  const sendTest = () =>
    startTransition(async () => {
      setTestResult(null);
      const result = await sendTestWebhook({});
      if (!result.ok) return setMessage({ tone: 'error', text: result.fieldErrors?.url ?? errorText(result) });
      const r = result.data;
      const outcome = r.queued
        ? t('test.queued')
        : r.ok
          ? t('test.answered', { status: r.statusCode === null ? 'none' : String(r.statusCode), ms: r.durationMs === null ? 'none' : String(r.durationMs) })
          : t('test.notDelivered', { reason: r.error ?? (r.statusCode === null ? t('test.noAnswer') : `HTTP ${r.statusCode}`) });
      setTestResult({ ok: r.ok, text: `${t('test.sent', { id: r.webhookId, url: r.url })} ${outcome}`, body: r.body });
    });

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-3">
        <TextField
          id="webhook-url"
          label={t('url')}
          type="url"
          autoComplete="off"
          placeholder="https://example.com/webhooks/gift-cards"
          hint={mode === 'live' ? t('liveHint') : t('testHint')}
          error={formState.errors.url?.message}
          {...register('url')}
        />
        <Button type="submit" disabled={formState.isSubmitting} className="sm:w-auto">
          {formState.isSubmitting ? t('saving') : endpoint ? t('change') : t('set')}
        </Button>
      </form>
      {endpoint && (
        <div className="space-y-3 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-700">
            {t('lastChanged')} <LocalTime iso={endpoint.updatedAt} />
            {endpoint.disabled && <span className="font-semibold text-red-800"> · {t('disabled')}</span>}
            {endpoint.previousSecretExpiresAt && (
              <>
                {` · ${t('previousSecret')} `}
                <LocalTime iso={endpoint.previousSecretExpiresAt} />
              </>
            )}
          </p>
          {secret ? <SecretBox label={t('secret')} value={secret} testId="webhook-secret" /> : <p className="text-sm text-slate-600">{t('secretHidden')}</p>}
          <div className="flex flex-col gap-2 sm:flex-row">
            {secret ? (
              <Button variant="secondary" className="sm:w-auto" onClick={() => setSecret(null)}>
                {t('hide')}
              </Button>
            ) : (
              <Button variant="secondary" className="sm:w-auto" onClick={reveal} disabled={pending}>
                {t('reveal')}
              </Button>
            )}
            <Button variant="danger" className="sm:w-auto" onClick={() => setConfirmRotate(true)} disabled={pending}>
              {t('rotate')}
            </Button>
          </div>
          <div className="space-y-2 border-t border-slate-100 pt-3">
            <p className="text-sm text-slate-600">{t.rich('test.intro', { code: (chunks) => <span className="font-mono">{chunks}</span> })}</p>
            <Button variant="secondary" className="sm:w-auto" onClick={sendTest} disabled={pending}>
              {pending ? t('test.sending') : t('test.send')}
            </Button>
            {testResult && (
              <div data-testid="test-event-result" className="space-y-2">
                <Notice tone={testResult.ok ? 'success' : 'error'}>{testResult.text}</Notice>
                <details className="rounded-md bg-slate-50 px-3 py-2 text-xs">
                  <summary className="cursor-pointer font-medium text-slate-800">{t('test.body')}</summary>
                  <pre className="mt-1 overflow-x-auto whitespace-pre-wrap break-all font-mono text-slate-900">
                    {JSON.stringify(JSON.parse(testResult.body), null, 2)}
                  </pre>
                </details>
              </div>
            )}
          </div>
        </div>
      )}
      {message && (
        <Notice tone={message.tone} testId="webhook-notice">
          {message.text}
        </Notice>
      )}
      <ConfirmDialog
        open={confirmRotate}
        title={t('rotateTitle')}
        confirmLabel={t('rotate')}
        pending={pending}
        onConfirm={rotate}
        onClose={() => setConfirmRotate(false)}
      >
        {t('rotateText')}
      </ConfirmDialog>
    </div>
  );
}
