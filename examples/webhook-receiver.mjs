// A receiver to try webhooks with: it answers 204 to every request and prints each one as
// `<webhook-id> <body>` on stdout. It listens on 127.0.0.1 on a free port, which it writes to the
// file named by its first argument once it listens, and it stops after as many requests as its
// second argument says (default 1), or after 60 s. Usage:
//   node examples/webhook-receiver.mjs port.txt 3 > received.txt &
// A real receiver checks the signature first: docs/changes-and-webhooks.md#in-typescript.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [portFile, count = '1'] = process.argv.slice(2);
if (!portFile) throw new Error('usage: node examples/webhook-receiver.mjs <port file> [requests]');
let left = Number(count);
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => {
    body += chunk;
  });
  req.on('end', () => {
    process.stdout.write(`${req.headers['webhook-id']} ${body}\n`);
    res.writeHead(204, { connection: 'close' }).end();
    if (--left <= 0) server.close();
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  writeFileSync(portFile, String(typeof address === 'object' && address ? address.port : ''));
});
setTimeout(() => server.close(() => process.exit(0)), 60_000).unref();
