const body = JSON.stringify({
  projects: Array.from({ length: 5 }, (_, k) => ({
    name: `单写 ${k}`,
    nameEn: `Single write ${k} ${Date.now()}`,
    description: 'A single write for timing ' + Date.now(),
    tags: [{ name: 'x' }],
    links: [{ type: 'CODEHOST', url: `https://github.com/single/w${k}` }],
  })),
});
const t = [];
for (let i = 0; i < 20; i++) {
  const s = performance.now();
  const r = await fetch('http://127.0.0.1:4201/api/webhook/projects', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'servekey' },
    body: body.replace(/Date/g, String(i)),
  });
  await r.text();
  t.push(performance.now() - s);
}
t.sort((a, b) => a - b);
console.log('write ms p50', t[10].toFixed(1), 'max', t[19].toFixed(1));
