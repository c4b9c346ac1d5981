import { useTranslations } from 'next-intl';
import { API_KEY_SCOPES, type ApiKeyScope } from '@/lib/validation';

/** The scope checkboxes of the new-key form, controlled by it; the server refuses an empty choice. */
export function KeyScopeFields({ value, onChange, error }: { value: readonly ApiKeyScope[]; onChange: (scopes: ApiKeyScope[]) => void; error?: string }) {
  const t = useTranslations('DevelopersKeys');
  const toggle = (scope: ApiKeyScope, on: boolean) => onChange(API_KEY_SCOPES.filter((s) => (s === scope ? on : value.includes(s))));
  return (
    <fieldset aria-describedby={error ? 'new-key-scopes-error' : undefined} data-testid="new-key-scopes">
      <legend className="text-sm font-medium text-slate-800">{t('scopesLegend')}</legend>
      <div className="mt-1 grid gap-1 sm:grid-cols-2">
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex min-h-10 items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="scopes"
              value={scope}
              checked={value.includes(scope)}
              onChange={(e) => toggle(scope, e.target.checked)}
              className="mt-0.5 size-5 shrink-0 accent-emerald-700"
            />
            <span>
              <span className="font-mono font-medium">{scope}</span>
              <span className="block text-xs text-slate-600">{t(`scopes.${scope}`)}</span>
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id="new-key-scopes-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** A key's scopes as chips, tinted when the key is restricted so it stands out in the list. */
export function KeyScopeChips({ scopes }: { scopes: readonly ApiKeyScope[] }) {
  const t = useTranslations('DevelopersKeys');
  const restricted = scopes.length < API_KEY_SCOPES.length;
  return (
    <ul className="mt-1 flex flex-wrap gap-1" aria-label={t('scopesLabel')} data-testid="key-scopes">
      {scopes.map((s) => (
        <li
          key={s}
          className={`rounded-full px-2 py-0.5 font-mono text-xs ${restricted ? 'bg-sky-100 text-sky-900' : 'bg-slate-100 text-slate-700'}`}
          title={t(`scopes.${s}`)}
        >
          {s}
        </li>
      ))}
    </ul>
  );
}
