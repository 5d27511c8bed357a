// What other features ask of the server menu (with api/useMenu, which fetches it).
export { menuHas, ORGANISATION_MENU, USERS_MENU } from './menuHas'
