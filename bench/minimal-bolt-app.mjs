// A minimal Bolt app, what any Bolt service pays to start: the HTTP receiver, auth.test at
// start, one /healthz route. bench/startup.ts starts it the way it starts `serve`, against
// the same local Slack, and compares the two.
import { App } from '@slack/bolt';

const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  customRoutes: [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200);
        res.end('ok');
      },
    },
  ],
});
const server = await app.start(Number(process.env.PORT ?? 0));
console.log(`listening on http://127.0.0.1:${server.address().port}`);
process.on('SIGTERM', () => app.stop().then(() => process.exit(0)));
