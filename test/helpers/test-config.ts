/** The Config `serve` would load for a test: placeholder credentials, the given SQLite file. */
import { type Config, loadConfig } from '../../src/config.js';

export function testConfig(databasePath: string): Config {
  return loadConfig('serve', {
    VISIBILITY_API_URL: 'http://127.0.0.1:9',
    VISIBILITY_API_KEY: 'sk_live_test0000000000000000000000000000',
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: 'test-signing-secret',
    DATABASE_PATH: databasePath,
  });
}
