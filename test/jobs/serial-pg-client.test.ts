/**
 * The job engine's connections (serial-pg-client.ts) run the statements they are given one
 * after another, in order, including pg-boss's way of giving them: a statement queued from
 * the pool's 'connect' event while the pool hands the connection to another one. pg then
 * never queues, so it never warns (the setup file fails any test file where it does).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SerialPgClient } from '../../src/jobs/serial-pg-client.js';
import { usePostgresDatabase } from '../helpers/postgres-database.js';

const database = usePostgresDatabase();

describe('a connection of the job engine', () => {
  it('runs statements given at once one after another, in the order given', async () => {
    const client = new SerialPgClient({ connectionString: database.url });
    await client.connect();
    try {
      const ended: string[] = [];
      const slow = client.query('SELECT pg_sleep(0.2)').then(() => ended.push('slow'));
      const fast = client.query('SELECT 1').then(() => ended.push('fast'));
      const viaCallback = new Promise<void>((resolve, reject) =>
        client.query('SELECT 2 AS two', (err, result) => {
          if (err) reject(err);
          ended.push(`callback ${result.rows[0].two}`);
          resolve();
        }),
      );
      const failing = client.query('SELECT no_such_column').catch(() => ended.push('failed'));
      await Promise.all([slow, fast, viaCallback, failing]);
      expect(ended).toEqual(['slow', 'fast', 'callback 2', 'failed']);
      expect((await client.query('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
    } finally {
      await client.end();
    }
  });

  it("runs a session statement queued on 'connect' before the statement the pool hands it to", async () => {
    const pool = new pg.Pool({ connectionString: database.url, Client: SerialPgClient, max: 1 });
    pool.on('connect', (client) => {
      void client.query("SET application_name = 'set-on-connect'");
    });
    try {
      const { rows } = await pool.query('SELECT current_setting($1) AS name', ['application_name']);
      expect(rows).toEqual([{ name: 'set-on-connect' }]);
    } finally {
      await pool.end();
    }
  });
});
