import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { requestAddress } from '../api/client-address';
import { getDb } from '../db/client';
import { logger } from '../observability/logger';
import { signInLimits } from './sign-in-limits';
import { authorizeSignIn } from './sign-in';
import type { Role } from './users';

const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

declare module 'next-auth' {
  interface User {
    businessId: number;
    role: Role;
    sessionVersion: number;
  }
  interface Session {
    user: { id: string; email: string; businessId: number; role: Role; sessionVersion: number };
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    uid: string;
    businessId: number;
    role: Role;
    /** users.session_version at sign-in; getDashboardSession ends the session when it no longer matches. */
    sv: number;
  }
}

/** Email and password against the hashed passwords of the users table, then a two-factor code when the user has it on; JWT sessions that expire after 8 hours. */
export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/login' },
  // next-auth's own logger prints several lines of text; these are the service's JSON lines.
  logger: {
    error: (code, metadata) => logger.error({ code, err: metadata instanceof Error ? metadata : metadata.error }, `next-auth: ${code}`),
    warn: (code) => logger.warn({ code }, `next-auth: ${code}`),
    debug: () => {},
  },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: {
        email: { label: 'Email', type: 'email' },
        password: { label: 'Password', type: 'password' },
        code: { label: 'Two-factor code', type: 'text' },
      },
      // next-auth answers a thrown authorize with 401 and ?error=<message>: the form tells the limit and the code step apart by it.
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const user = await authorizeSignIn(getDb(), signInLimits(getDb), {
          email: credentials.email,
          password: credentials.password,
          code: credentials.code,
          address: requestAddress(req.headers ?? {}),
        });
        return user && { id: String(user.id), email: user.email, businessId: user.businessId, role: user.role, sessionVersion: user.sessionVersion };
      },
    }),
  ],
  callbacks: {
    // Only our own pages: a callbackUrl elsewhere (or not a URL at all, like javascript:...) lands on the dashboard.
    redirect({ url, baseUrl }) {
      if (url.startsWith('/') && !url.startsWith('//')) return `${baseUrl}${url}`;
      try {
        if (new URL(url).origin === baseUrl) return url;
      } catch {
        /* not a URL */
      }
      return baseUrl;
    },
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.businessId = user.businessId;
        token.role = user.role;
        token.sv = user.sessionVersion;
      }
      return token;
    },
    session({ session, token }) {
      session.user = { id: token.uid, email: token.email ?? '', businessId: token.businessId, role: token.role, sessionVersion: token.sv };
      return session;
    },
  },
};
