// Preloaded with --require: when the process exits it writes the files of the CommonJS modules it loaded to $LOADED_MODULES_DIR/<pid>.
const fs = require('node:fs');
const path = require('node:path');

process.on('exit', () => {
  const dir = process.env.LOADED_MODULES_DIR;
  if (dir) fs.writeFileSync(path.join(dir, String(process.pid)), Object.keys(require.cache).join('\n'));
});
