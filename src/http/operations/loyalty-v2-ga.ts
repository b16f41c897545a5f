/**
 * The generally available Loyalty v2's operations, as facts: each path template, then the methods it answers with
 * the name the vendor gives each operation (its operationId), as documented by the vendor's reference on its main
 * branch (voucherifyio/voucherify-openapi, documentation/openapi/loyalties-v2.json at commit 65c33a7a, August
 * 2026). Two are emulated: POST .../tiers in its GA form (the beta's row, told apart by the body) and DELETE
 * .../benefits/{benefitId}. A client written against today's reference that calls another gets 501 not_emulated
 * naming it, as for the beta and the v1 reference. Where the beta documents the same method and path, the beta's
 * name answers, as it did before (real-operations.ts). test/api/not-emulated-ga.test.ts derives this list from the
 * GA file, where the contract is present, and compares.
 */
export const LOYALTY_V2_GA_OPERATIONS = `
/v2/loyalties/programs POST createProgram, GET listPrograms
/v2/loyalties/programs/{programId} GET getProgram, PUT updateProgram, DELETE deleteProgram
/v2/loyalties/programs/{programId}/activate POST activateProgram
/v2/loyalties/programs/{programId}/deactivate POST deactivateProgram
/v2/loyalties/programs/{programId}/activities GET listProgramActivities
/v2/loyalties/programs/{programId}/card-definitions GET listProgramCardDefinitionAssignments
/v2/loyalties/programs/{programId}/card-definitions/batch POST batchProgramCardDefinitionAssignments
/v2/loyalties/programs/{programId}/earning-rules GET listProgramEarningRuleAssignments
/v2/loyalties/programs/{programId}/earning-rules/batch POST batchProgramEarningRuleAssignments
/v2/loyalties/programs/{programId}/tier-structures GET listProgramTierStructureAssignments
/v2/loyalties/programs/{programId}/tier-structures/batch POST batchProgramTierStructureAssignments
/v2/loyalties/programs/{programId}/rewards GET listProgramRewardAssignments
/v2/loyalties/programs/{programId}/rewards/batch POST batchProgramRewardAssignments
/v2/loyalties/programs/{programId}/rewards/{rewardId} PUT updateProgramRewardAssignment
/v2/loyalties/programs/{programId}/members POST createProgramMember, GET listProgramMembers
/v2/loyalties/programs/{programId}/members/batch POST batchCreateProgramMembers
/v2/loyalties/programs/{programId}/members/{memberId} GET getProgramMember, PUT updateProgramMember, DELETE deleteProgramMember
/v2/loyalties/memberships/{customerId} GET getCustomerMemberships
/v2/loyalties/programs/{programId}/memberships/{customerId} GET getProgramMembership
/v2/loyalties/programs/{programId}/members/{memberId}/activate POST activateProgramMember
/v2/loyalties/programs/{programId}/members/{memberId}/deactivate POST deactivateProgramMember
/v2/loyalties/programs/{programId}/members/{memberId}/activities GET listProgramMemberActivities
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/points POST adjustCardPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/activities GET listCardActivities
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points GET listCardPendingPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points/{bucketId}/activate POST activateCardPendingPointsBucket
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points/{bucketId}/cancel POST cancelCardPendingPointsBucket
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/expiring-points GET listCardExpiringPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/expiring-points/{bucketId}/expire POST expireCardPointsBucket
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/transactions GET listCardTransactions
/v2/loyalties/programs/{programId}/rewards/purchases/{rewardTransactionId}/refund POST refundRewardPurchase
/v2/loyalties/programs/{programId}/members/{memberId}/rewards/purchases GET listMemberRewardPurchases, POST purchaseMemberReward
/v2/loyalties/programs/{programId}/members/{memberId}/orders/payments GET listMemberOrderPayments, POST createMemberOrderPayment
/v2/loyalties/programs/{programId}/members/{memberId}/benefits/transactions GET listMemberBenefitTransactions
/v2/loyalties/programs/{programId}/members/{memberId}/tiers/transactions GET listMemberTierTransactions
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/reports/daily GET getMemberCardDailyReport
/v2/loyalties/programs/{programId}/members/{memberId}/earning-rules/{earningRuleId}/reports/daily GET getMemberEarningRuleDailyReport
/v2/loyalties/programs/{programId}/reports/spending/daily GET getProgramSpendingDailyReport
/v2/loyalties/programs/{programId}/reports/spending/summary GET getProgramSpendingSummaryReport
/v2/loyalties/programs/{programId}/reports/tiers/daily GET getProgramTiersDailyReport
/v2/loyalties/programs/{programId}/reports/tiers/summary GET getProgramTiersSummaryReport
/v2/loyalties/programs/{programId}/reports/points-earnings/daily GET getProgramPointsEarningsDailyReport
/v2/loyalties/programs/{programId}/reports/points-earnings/summary GET getProgramPointsEarningsSummaryReport
/v2/loyalties/programs/{programId}/reports/earning-rules/daily GET getProgramEarningRulesDailyReport
/v2/loyalties/programs/{programId}/reports/earning-rules/summary GET getProgramEarningRulesSummaryReport
/v2/loyalties/card-definitions GET listCardDefinitions, POST createCardDefinition
/v2/loyalties/card-definitions/{cardDefinitionId} GET getCardDefinition, PUT updateCardDefinition, DELETE deleteCardDefinition
/v2/loyalties/card-definitions/{cardDefinitionId}/activate POST activateCardDefinition
/v2/loyalties/card-definitions/{cardDefinitionId}/draft POST draftCardDefinition
/v2/loyalties/card-definitions/{cardDefinitionId}/activities GET listCardDefinitionActivities
/v2/loyalties/earning-rules POST createEarningRule, GET listEarningRules
/v2/loyalties/earning-rules/{earningRuleId} GET getEarningRule, PUT updateEarningRule, DELETE deleteEarningRule
/v2/loyalties/earning-rules/{earningRuleId}/activate POST activateEarningRule
/v2/loyalties/earning-rules/{earningRuleId}/deactivate POST deactivateEarningRule
/v2/loyalties/earning-rules/{earningRuleId}/draft POST draftEarningRule
/v2/loyalties/earning-rules/{earningRuleId}/activities GET listEarningRuleActivities
/v2/loyalties/tier-structures POST createTierStructure, GET listTierStructures
/v2/loyalties/tier-structures/{tierStructureId} GET getTierStructure, PUT updateTierStructure, DELETE deleteTierStructure
/v2/loyalties/tier-structures/{tierStructureId}/activate POST activateTierStructure
/v2/loyalties/tier-structures/{tierStructureId}/deactivate POST deactivateTierStructure
/v2/loyalties/tier-structures/{tierStructureId}/draft POST draftTierStructure
/v2/loyalties/tier-structures/{tierStructureId}/tiers POST createTier, GET listTiers
/v2/loyalties/tier-structures/{tierStructureId}/tiers/{tierId} PUT updateTier, DELETE deleteTier
/v2/loyalties/tier-structures/{tierStructureId}/activities GET listTierStructureActivities
/v2/loyalties/benefits GET listBenefits, POST createBenefit
/v2/loyalties/benefits/{benefitId} GET getBenefit, PUT updateBenefit, DELETE deleteBenefit
/v2/loyalties/benefits/{benefitId}/activate POST activateBenefit
/v2/loyalties/benefits/{benefitId}/draft POST draftBenefit
/v2/loyalties/benefits/{benefitId}/activities GET listBenefitActivities
/v2/loyalties/rewards GET listRewards, POST createReward
/v2/loyalties/rewards/{rewardId} GET getReward, PUT updateReward, DELETE deleteReward
/v2/loyalties/rewards/{rewardId}/activate POST activateReward
/v2/loyalties/rewards/{rewardId}/deactivate POST deactivateReward
/v2/loyalties/rewards/{rewardId}/draft POST draftReward
/v2/loyalties/rewards/{rewardId}/activities GET listRewardActivities
/v2/loyalties/examine/earning-rules POST examineEarningRules
/v2/loyalties/examine/rewards POST examineRewards
`;

/**
 * Operations the vendor announces without an OpenAPI file to describe them: the v2 token endpoint of its changelog
 * (22 July 2026). Answered 501 like the others, so that a client trying it is told it is not emulated rather than
 * that no such endpoint exists.
 */
export const ANNOUNCED_OPERATIONS = `
/v2/oauth/token POST announced in the vendor's changelog of 22 July 2026; no OpenAPI file describes it
`;
