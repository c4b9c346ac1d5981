import { z } from 'zod';
import { passwordSchema } from '../auth/password-rules';
import { CALENDARS, LOCALES } from '../i18n/locale';

export const changePasswordSchema = z.object({
  current_password: z.string({ error: 'Enter your current password.' }).min(1, { error: 'Enter your current password.' }).max(200),
  // Only its presence here: the password rule is checked by changePassword, together with the current password.
  new_password: z
    .string({ error: 'Choose a new password.' })
    .min(1, { error: 'Choose a new password.' })
    .max(200, { error: 'Use at most 200 characters for the password.' }),
});

export const confirmTwoFactorSchema = z.object({
  code: z
    .string({ error: 'Enter the 6-digit code.' })
    .transform((c) => c.replace(/\s/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, { error: 'Enter the 6-digit code your app shows.' })),
});

export const disableTwoFactorSchema = z.object({
  proof: z
    .string({ error: 'Enter a current code from your app, or a recovery code.' })
    .min(1, { error: 'Enter a current code from your app, or a recovery code.' })
    .max(200),
});

/** The invitation and reset pages: the link's token and the password the person chooses. */
export const choosePasswordSchema = z.object({
  token: z.string({ error: 'The link is incomplete.' }).max(100),
  password: passwordSchema,
});

/** Account's language and calendar: 'browser' stores no language, so the browser's Accept-Language decides. */
export const preferencesSchema = z.object({
  language: z.enum([...LOCALES, 'browser'], { error: 'Choose a language.' }),
  calendar: z.enum(CALENDARS, { error: 'Choose a calendar.' }),
});

export type PreferencesInput = z.input<typeof preferencesSchema>;
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;
export type ConfirmTwoFactorInput = z.input<typeof confirmTwoFactorSchema>;
export type DisableTwoFactorInput = z.input<typeof disableTwoFactorSchema>;
export type ChoosePasswordInput = z.input<typeof choosePasswordSchema>;

/** The sign-in page's "Forgot password?" form. */
export const forgotPasswordSchema = z.object({
  email: z.email({ error: 'Enter your email address, like name@example.com.' }).max(254),
});
