'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
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
      setMessage({ tone: 'success', text: `Events of ${mode} mode now go to ${result.data.url}. A new signing secret was made for it.` });
      router.refresh();
      return;
    }
    if (result.fieldErrors?.url) setError('url', { message: result.fieldErrors.url }, { shouldFocus: true });
    else setMessage({ tone: 'error', text: result.message });
  });

  const reveal = () =>
    startTransition(async () => {
      const result = await revealWebhookSecret({});
      if (result.ok) setSecret(result.data.secret);
      else setMessage({ tone: 'error', text: result.message });
    });

  const rotate = () =>
    startTransition(async () => {
      const result = await rotateWebhookSecret({});
      setConfirmRotate(false);
      if (!result.ok) return setMessage({ tone: 'error', text: result.message });
      setSecret(result.data.secret);
      setMessage({ tone: 'success', text: 'New secret in use. The old one keeps signing beside it for 24 hours.' });
      router.refresh();
    });

  const sendTest = () =>
    startTransition(async () => {
      setTestResult(null);
      const result = await sendTestWebhook({});
      if (!result.ok) return setMessage({ tone: 'error', text: result.fieldErrors?.url ?? result.message });
      const r = result.data;
      const outcome = r.queued
        ? 'It is sent in the background: the address is not public, so its outcome shows only in the audit log.'
        : r.ok
          ? `Your endpoint answered${r.statusCode === null ? '' : ` HTTP ${r.statusCode}`}${r.durationMs === null ? '' : ` in ${r.durationMs} ms`}.`
          : `Not delivered: ${r.error ?? (r.statusCode === null ? 'no answer' : `HTTP ${r.statusCode}`)}.`;
      setTestResult({ ok: r.ok, text: `Test event ${r.webhookId} sent to ${r.url}. ${outcome}`, body: r.body });
    });

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-3">
        <TextField
          id="webhook-url"
          label="Endpoint URL"
          type="url"
          autoComplete="off"
          placeholder="https://example.com/webhooks/gift-cards"
          hint={mode === 'live' ? 'Live mode needs https to a public address.' : 'Test mode also accepts http and localhost.'}
          error={formState.errors.url?.message}
          {...register('url')}
        />
        <Button type="submit" disabled={formState.isSubmitting} className="sm:w-auto">
          {formState.isSubmitting ? 'Saving…' : endpoint ? 'Change URL' : 'Set URL'}
        </Button>
      </form>
      {endpoint && (
        <div className="space-y-3 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-700">
            Last changed <LocalTime iso={endpoint.updatedAt} />
            {endpoint.disabled && <span className="font-semibold text-red-800"> · disabled by the provider</span>}
            {endpoint.previousSecretExpiresAt && (
              <>
                {' · the previous secret also signs until '}
                <LocalTime iso={endpoint.previousSecretExpiresAt} />
              </>
            )}
          </p>
          {secret ? (
            <SecretBox label="Signing secret" value={secret} testId="webhook-secret" />
          ) : (
            <p className="text-sm text-slate-600">The signing secret is hidden. Revealing it is recorded in the audit log.</p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row">
            {secret ? (
              <Button variant="secondary" className="sm:w-auto" onClick={() => setSecret(null)}>
                Hide secret
              </Button>
            ) : (
              <Button variant="secondary" className="sm:w-auto" onClick={reveal} disabled={pending}>
                Reveal secret
              </Button>
            )}
            <Button variant="danger" className="sm:w-auto" onClick={() => setConfirmRotate(true)} disabled={pending}>
              Rotate secret
            </Button>
          </div>
          <div className="space-y-2 border-t border-slate-100 pt-3">
            <p className="text-sm text-slate-600">
              A test event is a signed <span className="font-mono">payout.success</span> with a <span className="font-mono">test_</span> reference and the
              header <span className="font-mono">webhook-test: true</span>. It moves no money, is sent once, and is not listed in the events API.
            </p>
            <Button variant="secondary" className="sm:w-auto" onClick={sendTest} disabled={pending}>
              {pending ? 'Sending…' : 'Send a test event'}
            </Button>
            {testResult && (
              <div data-testid="test-event-result" className="space-y-2">
                <Notice tone={testResult.ok ? 'success' : 'error'}>{testResult.text}</Notice>
                <details className="rounded-md bg-slate-50 px-3 py-2 text-xs">
                  <summary className="cursor-pointer font-medium text-slate-800">Body sent</summary>
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
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        pending={pending}
        onConfirm={rotate}
        onClose={() => setConfirmRotate(false)}
      >
        Events will be signed with a new secret. The current one keeps signing beside it for 24 hours, so you have a day to update your receiver.
      </ConfirmDialog>
    </div>
  );
}
