export const Paths = {
  root: '/',
  login: '/user/login',
  recover: '/user/recover',
  home: '/watchBoard',
  dashboard: '/watchBoard/dashboard',
  forbidden: '/exception/403',
  notFound: '/exception/404',
  serverError: '/exception/500',
} as const
