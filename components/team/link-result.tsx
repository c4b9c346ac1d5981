import { SecretBox } from '@/components/developers/secret-box';
import { LocalTime } from '@/components/ui/local-time';
import { Notice } from '@/components/ui/notice';
import type { MailOutcome } from '@/lib/mail/mail-outcome';

const MAIL_WORDS: Record<MailOutcome, string> = {
  sent: 'We also emailed it to them.',
  failed: 'Sending the email failed: pass the link on yourself.',
  off: 'Email is not set up on this server: pass the link on yourself, through a channel you trust.',
};

/** A link made for someone, shown once to copy, with what happened to the email. */
export function LinkResult({ label, link, mail, expiresAt, testId }: { label: string; link: string; mail: MailOutcome; expiresAt: string; testId: string }) {
  return (
    <div className="space-y-2">
      <SecretBox label={label} value={link} testId={testId} />
      <Notice tone={mail === 'sent' ? 'success' : 'info'} testId={`${testId}-mail`}>
        It works once, until <LocalTime iso={expiresAt} />. {MAIL_WORDS[mail]} Only a hash of it is kept: it cannot be shown again.
      </Notice>
    </div>
  );
}
