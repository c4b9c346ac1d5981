/**
 * RFC 4180 as the exports write it: CRLF after every line, quoted cells that
 * may hold commas, line breaks and "" for a quote. Rows come back keyed by the header.
 */
export function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\r')) cell += c;
    else {
      row.push(cell);
      cell = '';
      if (c === '\r') {
        if (text[++i] !== '\n') throw new Error(`a CR without LF at ${i}`);
        records.push(row);
        row = [];
      }
    }
  }
  if (cell || row.length) throw new Error('the last line does not end with CRLF');
  const [header, ...rest] = records;
  return rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}
