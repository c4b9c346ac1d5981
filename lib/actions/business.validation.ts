import { z } from 'zod';

export const businessSettingsSchema = z.object({
  time_zone: z.string({ error: 'Choose a time zone.' }).trim().min(1, { error: 'Choose a time zone.' }).max(64),
  country: z
    .string({ error: 'Choose a country.' })
    .trim()
    .regex(/^[A-Z]{2}$/, { error: 'Choose a country from the list.' }),
});

export type BusinessSettingsInput = z.input<typeof businessSettingsSchema>;
