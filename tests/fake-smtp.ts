import net from 'node:net';

/** A minimal SMTP server on loopback that keeps each message's DATA, for testing mail without a mail server. */
export async function startFakeSmtp(): Promise<{ url: string; messages: string[]; close: () => Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          inData = false;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol).toUpperCase();
        buffer = buffer.slice(eol + 2);
        if (line.startsWith('EHLO')) socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (line.startsWith('DATA')) {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (line.startsWith('QUIT')) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
