import fs from 'node:fs';
import path from 'node:path';
import { buildDocument } from '../lib/openapi/build-document';

/** npm run openapi: writes openapi.json at the repository root, checked in so API changes show in review. */
const file = path.resolve(import.meta.dirname, '..', 'openapi.json');
fs.writeFileSync(file, `${JSON.stringify(buildDocument(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), file)}`);
