/**
 * Fills `{{name}}` placeholders (the catalogue's i18next syntax) in a string that reached an
 * island as a prop. Unknown placeholders are left as they are.
 * @example interpolate('getting now ({{n}})', { n: 42 }) // 'getting now (42)'
 */
export function interpolate(text: string, vars?: Readonly<Record<string, string | number>>): string {
  if (!vars) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
