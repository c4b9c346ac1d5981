declare module 'next/dist/compiled/busboy' {
  import type { Writable } from 'node:stream';
  const busboy: (options: {
    headers: Record<string, string | string[] | undefined>;
    defParamCharset?: string;
    limits?: { fieldSize?: number; fields?: number };
  }) => Writable;
  export default busboy;
}
