import { describe, expect, it } from 'vitest';
import { smsParts } from './sms-parts';

describe('smsParts', () => {
  it('counts GSM-7 at 160 a part and 153 when split, extension characters twice', () => {
    expect(smsParts('a'.repeat(160))).toEqual({ encoding: 'gsm7', units: 160, parts: 1 });
    expect(smsParts('a'.repeat(161))).toEqual({ encoding: 'gsm7', units: 161, parts: 2 });
    expect(smsParts('a'.repeat(306)).parts).toBe(2);
    expect(smsParts('a'.repeat(307)).parts).toBe(3);
    expect(smsParts('€'.repeat(80))).toEqual({ encoding: 'gsm7', units: 160, parts: 1 });
  });

  it('counts Ethiopic (and any character outside GSM-7) as UCS-2: 70 a part, 67 when split', () => {
    expect(smsParts('ሀ'.repeat(70))).toEqual({ encoding: 'ucs2', units: 70, parts: 1 });
    expect(smsParts('ሀ'.repeat(71)).parts).toBe(2);
    expect(smsParts('ሀ'.repeat(134)).parts).toBe(2);
    expect(smsParts('ሀ'.repeat(135)).parts).toBe(3);
    // A no-break space, as Intl writes between a currency and its amount, is not GSM-7.
    expect(smsParts('ETB\u00a01.00').encoding).toBe('ucs2');
  });
});
