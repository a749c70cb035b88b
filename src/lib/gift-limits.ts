/** The longest gift message (characters). Its own module: the checkout's browser code reads it without loading zod. */
export const GIFT_MESSAGE_MAX = 1000;
