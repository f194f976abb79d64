/**
 * Every time of day and date the extension shows, in the editor's locale (vscode.env.language): its
 * own hour cycle (12-hour in English, 24-hour in Italian) everywhere, never a mix. No `vscode` here.
 */

/** `09:05:07 AM` (en), `09:05:07` (it): a time of day with seconds. */
export function timeOfDay(at: number, locale = 'en'): string {
  return new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** `Nov 22, 2026, 9:05:07 AM` (en), `22 nov 2026, 09:05:07` (it). */
export function dateAndTime(at: number, locale = 'en'): string {
  return new Date(at).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'medium' });
}
