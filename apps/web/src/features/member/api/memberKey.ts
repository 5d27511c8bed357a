export const memberKey = ['member'] as const
