import type { Contract } from './contracts/contract';

/** The success answer of an API operation, before its envelope. */
interface SuccessResult {
  status: number;
  message: string;
  data: unknown;
}

/** What an API handler answers: its data, and which of its contract's success messages when the contract names several. */
export interface ContractAnswer {
  data: unknown;
  message?: string;
  /** The contract's accepted (202) answer rather than its success. */
  accepted?: boolean;
}

/** The success answer of an operation: status and message as its contract declares them. */
export function contractResult(contract: Contract, answer: ContractAnswer): SuccessResult {
  if (answer.accepted) {
    if (!contract.accepted) throw new Error(`${contract.operationId} answered 202, which its contract does not declare`);
    return { status: contract.accepted.status, message: contract.accepted.message, data: answer.data };
  }
  const messages: readonly string[] = typeof contract.success.message === 'string' ? [contract.success.message] : contract.success.message;
  const message = answer.message ?? (messages.length === 1 ? messages[0] : undefined);
  // A message the contract does not name is this code's bug: a 500, never an answer the document does not describe.
  if (message === undefined || !messages.includes(message))
    throw new Error(`${contract.operationId} answered a message its contract does not name: ${message}`);
  return { status: contract.success.status, message, data: answer.data };
}
