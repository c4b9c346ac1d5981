import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { signInLimits, SIGN_IN_LIMITED } from '../api/rate-limit';
import { getDb } from '../db/client';
import type { Role } from './users';
import { verifyCredentials } from './users';

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

declare module 'next-auth' {
  interface User {
    businessId: number;
    role: Role;
  }
  interface Session {
    user: { id: string; email: string; businessId: number; role: Role };
  }
}
declare module 'next-auth/jwt' {
  interface JWT {
    uid: string;
    businessId: number;
    role: Role;
  }
}

/** Email and password against the hashed passwords of the users table; JWT sessions that expire after 8 hours. */
export const authOptions: NextAuthOptions = {
  secret: process.env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/login' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      async authorize(credentials, req) {
        if (!credentials?.email || !credentials.password) return null;
        const forwarded = String(req.headers?.['x-forwarded-for'] ?? req.headers?.['x-real-ip'] ?? '').split(',')[0].trim();
        // next-auth answers a thrown authorize with 401 and ?error=<message>: the form tells this case apart by that message.
        if (!signInLimits().take(`${credentials.email.trim().toLowerCase()}|${forwarded || 'direct'}`).ok) throw new Error(SIGN_IN_LIMITED);
        const user = await verifyCredentials(getDb(), credentials.email, credentials.password);
        return user ? { id: String(user.id), email: user.email, businessId: user.businessId, role: user.role } : null;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = user.id;
        token.businessId = user.businessId;
        token.role = user.role;
      }
      return token;
    },
    session({ session, token }) {
      session.user = { id: token.uid, email: token.email ?? '', businessId: token.businessId, role: token.role };
      return session;
    },
  },
};
