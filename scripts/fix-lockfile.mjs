// The registry mirror these machines use lacks some platform-only optional
// packages (macOS/Windows builds of next's swc and tailwind's oxide), so
// `npm install` leaves them out of package-lock.json and `npm ci` then refuses
// the lock. Recording them as optional, platform-bound entries lets `npm ci`
// skip them on Linux exactly as it would with a complete lock.
import fs from 'node:fs';

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const platformOf = (name) => {
  const n = name.split('/').pop();
  if (n.includes('wasm32')) return { cpu: ['wasm32'] };
  const os = ['darwin', 'win32', 'linux', 'android', 'freebsd'].find((o) => n.includes(o));
  const cpu = ['arm64', 'x64', 'ia32', 'arm'].find((c) => n.includes(`-${c}`));
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }) };
};
let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (packages[key] || packages[`${path}/node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform.os && !platform.cpu) continue;
    packages[key] = { version: range.replace(/^[\^~]/, ''), optional: true, ...platform };
    added++;
  }
}
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`fix-lockfile: recorded ${added} platform-only optional packages`);
