import { ServiceError } from '../../errors';
import { LIVE_NOT_CONFIGURED, type BankRail } from '../../providers/provider-port';
import { RailRefused } from '../../providers/rail-refused';
import { chapaBankFor, chapaBanks } from './chapa-banks';
import { chapaConfig } from './config';
import { sendRailRequestNow } from './rail-requests';

const CHAPA_PROVIDER = 'chapa';

/**
 * Live bank and wallet payouts through Chapa's transfers. The destination is
 * checked against Chapa's bank list before the debit; the transfer request is
 * queued with the debit and sent once, here straight away and by the worker
 * after that (lib/rails/chapa/rail-requests.ts). Chapa settles it: webhooks
 * and verify, never a timer.
 */
export const chapaBankRail: BankRail = {
  name: CHAPA_PROVIDER,
  async prepare(instruction) {
    const config = chapaConfig();
    if (!config) throw new ServiceError('failed_to_initiate_payout', LIVE_NOT_CONFIGURED);
    const bank = await chapaBankFor(config, instruction.bankSlug, instruction.currency, instruction.accountNumber);
    return { provider: CHAPA_PROVIDER, bankCode: bank.code };
  },
  async warm() {
    const config = chapaConfig();
    if (config) await chapaBanks(config);
  },
  async initiate(instruction, db) {
    // Only a refusal fails the payout; Chapa being down leaves it pending for the worker's retries.
    const result = await sendRailRequestNow(db, instruction.reference);
    if (result === 'refused') throw new RailRefused(`Chapa refused transfer ${instruction.reference}`);
  },
  async sendQueued(db, reference) {
    await sendRailRequestNow(db, reference);
  },
  settleAfterMs: () => null,
  outcome: () => 'failed',
};
