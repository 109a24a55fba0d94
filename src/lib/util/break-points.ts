/**
 * Where a long contact (an e-mail address, a web address) may break across lines: after `@` and
 * before each dot, as typographers break addresses; a hyphen already lets a line break after it.
 * The page puts a `<wbr>` between the parts (src/components/VisitInfo.astro) and keeps
 * `overflow-wrap: break-word`, which breaks inside a part only when the part alone is wider than
 * the line: at 320 px `overflow-wrap: anywhere` broke `bangkok` into `ban|gkok` (issue 23 review).
 * @example contactParts('visitor@ieae.example') // ['visitor@', 'ieae', '.example']
 * @example contactParts('a.b@c.d') // ['a', '.b@', 'c', '.d']
 */
export function contactParts(text: string): string[] {
  return text.split(/(?<=@)|(?=\.)/).filter((part) => part !== '');
}
