import { z } from 'zod';
import { CALENDARS, LOCALES } from '../i18n/locale';

/** The language and calendar a business's customers read: the back office's PUT …/locale and the owner's Settings form. */
export const businessLocaleSchema = z.object({
  customer_language: z.enum(LOCALES, { error: 'customer_language must be am or en.' }),
  calendar: z.enum(CALENDARS, { error: 'calendar must be ethiopic or gregorian.' }),
});

export type BusinessLocale = z.output<typeof businessLocaleSchema>;
