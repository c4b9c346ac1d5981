import { describe, expect, it } from 'vitest';
import { checkActionBody, type MultipartField } from './action-body';

const action = { 'next-action': 'a'.repeat(42), 'content-type': 'multipart/form-data; boundary=b' };
const check = (fields: MultipartField[], headers: Record<string, string> = action) => checkActionBody(Buffer.alloc(0), headers, async () => fields);
const text = (name: string, value: string): MultipartField => ({ name, text: value });

describe('checkActionBody: references between fields', () => {
  it('refuses a reference to a missing field, a file that is text, and a loop', async () => {
    for (const fields of [
      [text('0', '["$B1"]')],
      [text('0', '["$1"]')],
      [text('0', '{"a":["$Q2"]}')],
      [text('0', '["$F1"]')],
      [text('0', '["$2"]'), text('1', '"x"')],
      [text('0', '["$B1"]'), text('1', '"not a file"')],
      [text('0', '["$1"]'), text('1', '["$2"]'), text('2', '["$1"]')],
      [text('0', '["$0"]')],
    ]) {
      await expect(check(fields), JSON.stringify(fields)).rejects.toMatchObject({ code: 'validation_error' });
    }
  });

  it('lets through what React sends: outlined values, forms, files, escapes and plain values', async () => {
    for (const fields of [
      [text('0', '["$K1"]'), text('1_email', 'a@b.c')],
      [text('0', '["$1","$$1","$D2026-01-01","$undefined"]'), text('1', '{"a":"$2"}'), text('2', '[1,2]')],
      [text('0', '["$B1"]'), { name: '1', text: null }],
      [text('0', '"plain"')],
    ]) {
      await expect(check(fields), JSON.stringify(fields)).resolves.toBeUndefined();
    }
    // A form posted without JavaScript names its action in the body: Next.js decodes it another way.
    await expect(check([text('0', '["$1"]')], { 'content-type': 'multipart/form-data; boundary=b' })).resolves.toBeUndefined();
  });
});
