import type { DashboardSession } from '../auth/session-types';
import { approveUpload, cancelUpload, startUpload } from '../uploads/decide-upload';
import { UPLOAD_PERMISSIONS } from '../auth/permissions';
import { defineAction } from './define-action';
import { uploadReferenceSchema } from './upload.validation';

const scope = (s: DashboardSession, reference: string) => ({ businessId: s.businessId, mode: s.mode, userId: s.userId, reference });

/** Runs a previewed card upload's valid rows. */
export const startCardUpload = defineAction({
  name: 'uploads.start_cards',
  permission: UPLOAD_PERMISSIONS.cards,
  schema: uploadReferenceSchema,
  handler: ({ db, session, input }) => startUpload(db, { ...scope(session, input.reference), kind: 'cards' }),
});

/** Runs a previewed payout upload's valid rows, or sends it for approval over the threshold. */
export const startPayoutUpload = defineAction({
  name: 'uploads.start_payouts',
  changesWaitingApprovals: true,
  permission: UPLOAD_PERMISSIONS.payouts,
  schema: uploadReferenceSchema,
  handler: ({ db, session, input }) => startUpload(db, { ...scope(session, input.reference), kind: 'payouts' }),
});

/** A second person lets a waiting payout upload run. */
export const approvePayoutUpload = defineAction({
  name: 'uploads.approve',
  changesWaitingApprovals: true,
  permission: 'money:approve',
  schema: uploadReferenceSchema,
  handler: ({ db, session, input }) => approveUpload(db, scope(session, input.reference)),
});

/** A second person refuses a waiting payout upload: nothing of it runs. */
export const rejectPayoutUpload = defineAction({
  name: 'uploads.reject',
  changesWaitingApprovals: true,
  permission: 'money:approve',
  schema: uploadReferenceSchema,
  handler: ({ db, session, input }) => cancelUpload(db, { ...scope(session, input.reference), asApprover: true }),
});

/** The uploader cancels their own upload: the rows not yet run never run. */
export const cancelOwnUpload = defineAction({
  name: 'uploads.cancel',
  changesWaitingApprovals: true,
  // Only the uploader can claim it (the core checks), whatever the kind.
  permission: 'account',
  schema: uploadReferenceSchema,
  handler: ({ db, session, input }) => cancelUpload(db, { ...scope(session, input.reference), asApprover: false }),
});
