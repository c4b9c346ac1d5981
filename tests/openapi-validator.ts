import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS with a default export that ESM sees one level down.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as typeof addFormatsModule;

const DOC_ID = 'https://giftcards.invalid/openapi.json';

export interface DocumentValidator {
  /** Errors of `value` against the schema at this JSON pointer of the document ([] when it fits). */
  validate(pointer: string, value: unknown): string[];
  /** The object an internal `#/...` reference of the document points at. */
  resolve(ref: string): any;
  escape(segment: string): string;
}

/** Validates values against schemas inside an OpenAPI 3.1 document with ajv's JSON Schema 2020-12 draft. */
export function documentValidator(doc: any): DocumentValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  const resolve = (ref: string) =>
    ref
      .replace(/^#?\//, '')
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((node, key) => node?.[key], doc);
  return {
    escape: escapePointer,
    resolve,
    validate(pointer, value) {
      let fn = compiled.get(pointer);
      if (!fn) {
        if (resolve(pointer) === undefined) return [`no schema at ${pointer}`];
        fn = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
        compiled.set(pointer, fn);
      }
      if (fn(value)) return [];
      return (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    },
  };
}
