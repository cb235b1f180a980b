import { Passport } from 'passport';
import type { TokenService } from './token.service';
import type { PasswordLogin } from './password-login';
/** Strategy names, so routes never spell them twice. */
export declare const STRATEGY: {
    readonly jwt: "jwt";
    readonly local: "local";
};
/**
 * The one place strategies are registered. Each app gets its own Passport instance (not the module
 * singleton), so two apps in one process never share strategies. No server sessions: tokens are stateless.
 */
export declare function createPassport(deps: {
    tokens: TokenService;
    passwordLogin: PasswordLogin;
}): InstanceType<typeof Passport>;
export type AuthPassport = InstanceType<typeof Passport>;
