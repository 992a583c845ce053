/** The error recorded when a merchant has no URL for a message (the rule is the domain's `webhookUrlFor`). */
export const noWebhookUrl = "no webhook URL configured"
