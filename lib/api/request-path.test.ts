import { describe, expect, it } from 'vitest';
import { pathDecodes } from './request-path';

describe('request paths', () => {
  it('decode when every escape is whole, whatever the query string holds', () => {
    expect(pathDecodes('/cards/1234%205678')).toBe(true);
    expect(pathDecodes('/search?q=%E0%A4%A')).toBe(true);
    expect(pathDecodes('/')).toBe(true);
  });

  it('do not when an escape is cut or invalid', () => {
    expect(pathDecodes('/cards/%E0%A4%A')).toBe(false);
    expect(pathDecodes('/payments/%')).toBe(false);
    expect(pathDecodes('/api/v1/card/%ZZ?x=1')).toBe(false);
  });
});
