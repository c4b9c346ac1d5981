import { CopyField } from '@/components/ui/copy-field';

/** A secret in a read-only box with a copy button; the text is selectable for browsers without clipboard access. */
export function SecretBox({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return <CopyField id={`${testId ?? 'secret'}-value`} label={label} value={value} testId={testId} />;
}
