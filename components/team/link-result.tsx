import { useTranslations } from 'next-intl';
import { SecretBox } from '@/components/developers/secret-box';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import type { MailOutcome } from '@/lib/mail/mail-outcome';

/** A link made for someone, shown once to copy, with what happened to the email. */
export function LinkResult({ label, link, mail, expiresAt, testId }: { label: string; link: string; mail: MailOutcome; expiresAt: string; testId: string }) {
  const t = useTranslations('TeamForms');
  return (
    <div className="space-y-2">
      <SecretBox label={label} value={link} testId={testId} />
      <Notice tone={mail === 'sent' ? 'success' : 'info'} testId={`${testId}-mail`}>
        {t.rich('link.works', { until: () => <LocalTime iso={expiresAt} /> })} {t(`link.mail.${mail}`)} {t('link.hashOnly')}
      </Notice>
    </div>
  );
}
