-- An invitation may name the branch (issue 45) the teammate it makes is tied to; accepting it ties them there.
ALTER TABLE "invitations" ADD COLUMN "location_id" integer REFERENCES "locations"("id");
