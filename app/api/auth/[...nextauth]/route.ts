import NextAuth from 'next-auth';
import { NextRequest } from 'next/server';
import { authOptions } from '@/lib/auth/auth-options';
import { guardAuthRequest } from '@/lib/auth/guard-auth-request';

const nextAuth = NextAuth(authOptions);

const handler = (req: NextRequest, ctx: { params: Promise<{ nextauth: string[] }> }) =>
  guardAuthRequest(req, (form) => nextAuth(form === undefined ? req : new NextRequest(req.url, { method: req.method, headers: req.headers, body: form }), ctx));

export { handler as GET, handler as POST };
