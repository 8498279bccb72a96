import { connectPostgres, observeStatements } from '#server/db/client.ts';
import * as repo from '#server/modules/operator/operator.repository.ts';

const h = await connectPostgres(process.env.DB!, 2);
observeStatements((q, p) => {
  console.log(q);
  console.log(JSON.stringify(p));
});
const now = new Date();
const r = await repo.waitingPage(h.db, { sites: [], languages: [] }, { order: 'value', limit: 26, now });
console.log(r.length);
const t0 = performance.now();
for (let i = 0; i < 200; i++) {
  observeStatements(null);
  await repo.waitingPage(h.db, { sites: [], languages: [] }, { order: 'value', limit: 26, now });
}
console.log('avg ms', (performance.now() - t0) / 200);
const t1 = performance.now();
for (let i = 0; i < 200; i++) {
  await repo.claimedRows(h.db, { sites: [], languages: [] }, now);
}
console.log('claimed avg ms', (performance.now() - t1) / 200);
process.exit(0);
