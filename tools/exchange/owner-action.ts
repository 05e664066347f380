/**
 * Owner actions in paper mode, signed with the wallet's own key and executed by trading-executor through
 * its owner-actions queue (the executor must be running):
 *
 *   OWNER_PRIVATE_KEY=0x<64 hex> npm run owner-action -- withdraw <usdc> [to]
 *                                                   stake <paper> | unstake <paper> | claim
 *
 * Refuses outside paper mode (PAPER_MODE=false or NODE_ENV=production), like the /dev endpoints. Uses
 * DATABASE_URL, REDIS_URL and REDIS_PREFIX like the executor: the action is written to the exchange's
 * inbox, then a queue job wakes the executor up. A result that does not arrive in time is reported as
 * pending (the action still runs), never as failed.
 */
import { OWNER_ACTIONS_QUEUE, signedOwnerActionSchema } from '@paper/contracts';
import { acceptOwnerAction, readOwnerActions } from '@paper/exchange-data';
import { decimalToScaled } from '@paper/exchange';
import {
  newOwnerAction,
  type OwnerActionMessage,
  ownerActionId,
  ownerActionMessageStrings,
  signOwnerAction,
} from '@paper/exchange-signing';
import { addWakeUp, bullConnection, databaseEnvShape, redisEnvShape, waitForJob } from '@paper/nest-infra';
import { Client } from 'pg';
import { Queue, QueueEvents } from 'bullmq';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import { paperModeRefusal } from './paper-mode';

const USAGE = [
  'usage: OWNER_PRIVATE_KEY=0x<64 hex> owner-action withdraw <usdc> [to]',
  '                                     owner-action stake <paper> | unstake <paper> | claim',
].join('\n');
const WAIT_MS = 15_000;

/** The action the arguments describe, for the wallet of `ownerKey` (throws the usage on bad arguments). */
export function parseOwnerAction(argv: readonly string[], wallet: string): OwnerActionMessage {
  const [command, amountArg, to] = argv;
  const amount = () => {
    if (!amountArg || !/^\d+(\.\d{1,6})?$/.test(amountArg))
      throw new Error(`the amount must be a positive decimal with at most 6 decimals\n${USAGE}`);
    return decimalToScaled(amountArg, 6);
  };
  switch (command) {
    case 'withdraw':
      if (to !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(to))
        throw new Error(`the destination must be an address\n${USAGE}`);
      return newOwnerAction('withdraw', wallet, { amountMicro: amount(), to });
    case 'stake':
    case 'unstake':
      return newOwnerAction(command, wallet, { amountMicro: amount() });
    case 'claim':
      return newOwnerAction('claim_rewards', wallet);
    default:
      throw new Error(USAGE);
  }
}

export async function runOwnerAction(
  argv: readonly string[],
  environment: Record<string, string | undefined>,
): Promise<string> {
  const refusal = paperModeRefusal('Owner actions from the command line', environment);
  if (refusal) throw new Error(refusal);
  const key = environment['OWNER_PRIVATE_KEY'];
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new Error(`set OWNER_PRIVATE_KEY to the wallet's private key (0x + 64 hex)\n${USAGE}`);
  const wallet = privateKeyToAccount(key as Hex).address.toLowerCase();
  const action = parseOwnerAction(argv, wallet);
  const actionId = ownerActionId(action);
  const payload = signedOwnerActionSchema.parse({
    kind: action.kind,
    message: ownerActionMessageStrings(action),
    signature: await signOwnerAction(action, key as Hex),
    actionId,
  });

  const env = z.object({ ...redisEnvShape, ...databaseEnvShape }).safeParse(environment);
  if (!env.success)
    throw new Error(
      `REDIS_URL, REDIS_PREFIX or DATABASE_URL is invalid: ${env.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  const settings = env.data;
  // The action is accepted once its inbox row is written; the queue job only wakes the executor up.
  const db = new Client({ connectionString: settings.DATABASE_URL });
  await db.connect();
  const queue = new Queue(OWNER_ACTIONS_QUEUE.queue, bullConnection(settings));
  const events = new QueueEvents(OWNER_ACTIONS_QUEUE.queue, bullConnection(settings));
  try {
    const acceptance = await acceptOwnerAction(db, payload);
    if (acceptance.state === 'conflict')
      throw new Error(
        `another action with id ${actionId} was accepted with a different signature; nothing was submitted`,
      );
    const job = await addWakeUp(
      queue,
      'execute-owner-action',
      { actionId },
      {
        jobId: actionId,
        attempts: 3,
        backoff: { type: 'exponential', delay: 500 },
        removeOnComplete: 1000,
        removeOnFail: 1000,
      },
      2000,
    );
    if (job) await waitForJob(job, events, WAIT_MS);
    const [row] = await readOwnerActions(db, [actionId]);
    const result = row?.result;
    if (!result) {
      return `${action.kind} ${actionId} is accepted but has not run within ${WAIT_MS / 1000} s (is trading-executor running?); it is still pending, not failed.`;
    }
    const lines = [`${result.status}${result.reason ? ` (${result.reason})` : ''}: ${result.message}`];
    if (result.account) {
      const a = result.account;
      lines.push(
        `account: free ${a.freeUsd} USDC, queued ${a.queuedUsd} USDC, ${a.paper} PAPER held, ${a.paperStaked} PAPER staked, ${a.unclaimedStakingRewardsUsd} USDC rewards unclaimed`,
      );
    }
    if (result.chainUsdc !== undefined) lines.push(`chain balance of ${wallet}: ${result.chainUsdc} USDC`);
    return lines.join('\n');
  } finally {
    await events.close();
    await queue.close();
    await db.end();
  }
}

if (require.main === module) {
  runOwnerAction(process.argv.slice(2), process.env).then(
    (text) => console.log(text),
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
