import ts from 'typescript';

/** A message key a source file names: `Nav.cards`, or a prefix (`errors.`) when the rest is computed. */
export interface KeyUse {
  key: string;
  dynamic: boolean;
  where: string;
}

const TRANSLATOR_FACTORIES = new Set(['useTranslations', 'getTranslations', 'cardholderTranslator']);
const TRANSLATOR_METHODS = new Set(['rich', 'markup', 'raw', 'has']);

/** The namespace a translator is made with: useTranslations('Nav'), getTranslations('Nav') or getTranslations({ namespace: 'Nav', ... }). */
function namespaceOf(call: ts.CallExpression): string | undefined | null {
  const callee = call.expression;
  if (!ts.isIdentifier(callee) || !TRANSLATOR_FACTORIES.has(callee.text)) return null;
  const arg = call.arguments[0];
  if (!arg) return undefined;
  if (ts.isStringLiteralLike(arg)) return arg.text;
  if (ts.isObjectLiteralExpression(arg)) {
    const ns = arg.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'namespace');
    if (!ns) return undefined;
    if (ts.isPropertyAssignment(ns) && ts.isStringLiteralLike(ns.initializer)) return ns.initializer.text;
  }
  throw new Error(`a translator's namespace must be written out: ${call.getText()}`);
}

/**
 * Every key a file's translators are called with. A translator is a variable made by useTranslations or
 * getTranslations; its key is a string literal, or a template literal whose fixed head names the keys it
 * may reach (`errors.${code}` uses every key under `errors.`). Anything else is refused: the test could not check it.
 */
export function keysUsedIn(fileName: string, source: string): { uses: KeyUse[]; problems: string[] } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const translators = new Map<string, string | undefined>();
  const uses: KeyUse[] = [];
  const problems: string[] = [];
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const full = (ns: string | undefined, key: string) => (ns ? `${ns}.${key}` : key);

  const findTranslators = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      let init: ts.Expression = node.initializer;
      if (ts.isAwaitExpression(init)) init = init.expression;
      if (ts.isCallExpression(init)) {
        try {
          const ns = namespaceOf(init);
          if (ns !== null) translators.set(node.name.text, ns);
        } catch (e) {
          problems.push(`${where(node)}: ${(e as Error).message}`);
        }
      }
    }
    ts.forEachChild(node, findTranslators);
  };
  findTranslators(file);

  const findCalls = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && TRANSLATOR_METHODS.has(callee.name.text)
          ? callee.expression.text
          : undefined;
      if (name !== undefined && translators.has(name)) {
        const ns = translators.get(name);
        const arg = node.arguments[0];
        if (arg && ts.isStringLiteralLike(arg)) uses.push({ key: full(ns, arg.text), dynamic: false, where: where(node) });
        else if (arg && ts.isTemplateExpression(arg) && arg.head.text.endsWith('.'))
          uses.push({ key: full(ns, arg.head.text), dynamic: true, where: where(node) });
        else problems.push(`${where(node)}: a message key the test cannot read: ${node.getText()}`);
      }
    }
    ts.forEachChild(node, findCalls);
  };
  findCalls(file);
  return { uses, problems };
}

/** A catalogue's keys, nested objects joined with dots, with their messages. */
export function flatten(messages: object, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(messages)) {
    if (v !== null && typeof v === 'object') for (const [kk, vv] of flatten(v, `${prefix}${k}.`)) out.set(kk, vv);
    else out.set(`${prefix}${k}`, String(v));
  }
  return out;
}

/** The names of a message's ICU arguments ({count}, {amount, number}, ...), for comparing two languages' messages. */
function argumentNames(message: string): string[] {
  return [...new Set([...message.matchAll(/\{\s*([A-Za-z_][\w]*)\s*(?:,|\})/g)].map((m) => m[1]))].sort();
}

/**
 * What is wrong between the code and the catalogues: a key used but missing from a catalogue, a catalogue key
 * nothing uses, a key one catalogue has and another lacks, an empty message, or messages whose arguments differ.
 */
export function catalogueProblems(uses: KeyUse[], catalogues: Record<string, Map<string, string>>): string[] {
  const problems: string[] = [];
  const [first, ...rest] = Object.keys(catalogues);
  const base = catalogues[first];
  for (const use of uses) {
    for (const [locale, messages] of Object.entries(catalogues)) {
      const found = use.dynamic ? [...messages.keys()].some((k) => k.startsWith(use.key)) : messages.has(use.key);
      if (!found) problems.push(`${use.where}: ${use.key}${use.dynamic ? '…' : ''} is missing from messages/${locale}.json`);
    }
  }
  for (const key of base.keys()) {
    if (!uses.some((u) => (u.dynamic ? key.startsWith(u.key) : key === u.key))) problems.push(`${key} in messages/${first}.json is used nowhere`);
  }
  for (const locale of rest) {
    const other = catalogues[locale];
    for (const key of base.keys()) if (!other.has(key)) problems.push(`${key} is missing from messages/${locale}.json`);
    for (const key of other.keys()) if (!base.has(key)) problems.push(`${key} in messages/${locale}.json is not in messages/${first}.json`);
    for (const [key, message] of other) {
      const english = base.get(key);
      if (english !== undefined && argumentNames(english).join() !== argumentNames(message).join())
        problems.push(`${key}: messages/${locale}.json has arguments ${argumentNames(message)} where messages/${first}.json has ${argumentNames(english)}`);
    }
  }
  for (const [locale, messages] of Object.entries(catalogues))
    for (const [key, message] of messages) if (!message.trim()) problems.push(`${key} is empty in messages/${locale}.json`);
  return problems;
}
