import { benchDeliveries } from './deliveries.ts';

/** `npm run bench`: every benchmark of the API, one after another. */
await benchDeliveries({ print: true });
