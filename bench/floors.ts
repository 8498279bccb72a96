/**
 * The floors every figure is compared with, each in a process of its own:
 *   hello: a Fastify hello world;
 *   pg:    Fastify + `pg` answering one primary-key select (the least a database-backed request costs).
 * Usage: node --import tsx bench/floors.ts hello|pg <port>   (pg reads BENCH_DATABASE_URL)
 */
import Fastify from 'fastify';
import pg from 'pg';

const [kind, port] = process.argv.slice(2);
const app = Fastify();
if (kind === 'pg') {
  const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
  const { rows } = await pool.query<{ id: number }>('select id from users order by id limit 1000');
  const ids = rows.map((row) => row.id);
  let next = 0;
  app.get('/', async () => {
    next = (next + 1) % ids.length;
    const result = await pool.query({
      name: 'floor',
      text: 'select id, email, status, credits from users where id = $1',
      values: [ids[next]],
    });
    return result.rows[0] ?? null;
  });
  app.addHook('onClose', () => pool.end());
} else {
  app.get('/', async () => ({ hello: 'world' }));
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
