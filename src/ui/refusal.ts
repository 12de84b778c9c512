/**
 * The engine's reason for refusing a file, without its closing "nothing was changed": the app says that once in
 * its own words after the reason ("…; nothing was changed. Your current database is unchanged." said it twice).
 */
export function refusalReason(message: string): string {
  const reason = message
    .trim()
    .replace(/[\s;,.:—-]*nothing (?:was|has been) changed\.?$/i, '')
    .trim();
  if (reason === '') return message.trim();
  return /[.!?]$/.test(reason) ? reason : `${reason}.`;
}
