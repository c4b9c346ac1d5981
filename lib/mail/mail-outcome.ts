/** 'off' when SMTP_URL is unset (the owner passes the link on by hand), else whether the mail server took the message. */
export type MailOutcome = 'sent' | 'failed' | 'off';
