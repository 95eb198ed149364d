/**
 * What an error about a delivery names as its `param`: the path parameters of
 * /v1/webhook-endpoints/{id}/deliveries/{delivery_id}, where a caller looks for the value at
 * fault (the operation's own input calls them endpoint_id and id, which there name the other one).
 */
export const DELIVERY_PARAM = 'delivery_id';
export const ENDPOINT_PARAM = 'id';
