// Importing each feature's action module registers its actions, so ALL_ACTIONS is complete.
import './account-actions';
import './business-actions';
import './card-actions';
import './developer-actions';
import './limits-actions';
import './team-actions';
import './payout-actions';
import './payment-actions';
import './redemption-actions';
import './refund-actions';
import './approval-actions';
import './upload-actions';
import './expiry-actions';
import './till-actions';
import './location-actions';

export { ALL_ACTIONS } from './define-action';
