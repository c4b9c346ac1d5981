import 'server-only';
import { notFound } from 'next/navigation';
import { withoutControlCharacters } from '@/lib/validation';

/** A page's dynamic segment as text, or the 404 page: a malformed escape, a control character or 200 characters name nothing. */
export function pathParam(raw: string): string {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    notFound();
  }
  if (text.length > 200 || withoutControlCharacters(text) !== text) notFound();
  return text;
}
