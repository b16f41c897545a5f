/**
 * The Loyalty v2 beta's operations, as facts: each path template, then the methods it answers with the name the
 * beta gives each operation (its operationId), as documented by the vendor's beta description
 * (voucherifyio/voucherify-openapi, documentation/openapi/loyalties-v2.json at commit 9502f5ce, the commit the
 * contract's v2 parts come from). The spec's two v2 operations are two of them: POST .../tiers and DELETE
 * .../incentives/{id}. A client written against the beta that calls another one (GET .../incentives/{id}, GET
 * .../tiers, PUT a tier, ...) gets 501 not_emulated naming it, as for the v1 reference, rather than a 405 or 404 it
 * would read as its own mistake. test/api/not-emulated-v2.test.ts derives this list from the beta file, where the
 * contract is present, and compares.
 */
export const LOYALTY_V2_BETA_OPERATIONS = `
/v2/loyalties/card-definitions GET listCardDefinitions, POST createCardDefinition
/v2/loyalties/card-definitions/{id} GET getCardDefinition, PUT updateCardDefinition, DELETE deleteCardDefinition
/v2/loyalties/card-definitions/{id}/activate POST activateCardDefinition
/v2/loyalties/card-definitions/{id}/draft POST draftCardDefinition
/v2/loyalties/card-definitions/{id}/activities GET listCardDefinitionActivities
/v2/loyalties/programs POST createProgram, GET listPrograms
/v2/loyalties/programs/{id} GET getProgram, PUT updateProgram, DELETE deleteProgram
/v2/loyalties/programs/{id}/activate POST activateProgram
/v2/loyalties/programs/{id}/deactivate POST deactivateProgram
/v2/loyalties/programs/{id}/activities GET listProgramActivities
/v2/loyalties/programs/{id}/card-definitions GET listProgramCardDefinitions
/v2/loyalties/programs/{id}/card-definitions/batch POST batchProcessCardDefinitions
/v2/loyalties/programs/{id}/earning-rules GET listProgramEarningRules
/v2/loyalties/programs/{id}/earning-rules/batch POST batchProcessEarningRules
/v2/loyalties/programs/{id}/tier-structures GET listProgramTierStructures
/v2/loyalties/programs/{id}/tier-structures/batch POST batchProcessTierStructures
/v2/loyalties/programs/{programId}/rewards GET listProgramRewards
/v2/loyalties/programs/{programId}/rewards/batch POST batchProcessRewards
/v2/loyalties/programs/{programId}/members POST createMember, GET listMembers
/v2/loyalties/programs/{programId}/members/{memberId} GET getMember, DELETE deleteMember
/v2/loyalties/programs/{programId}/members/{memberId}/activate POST activateMember
/v2/loyalties/programs/{programId}/members/{memberId}/deactivate POST deactivateMember
/v2/loyalties/programs/{programId}/members/{memberId}/activities GET listMemberActivities
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/points POST adjustCardPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/activities GET listCardActivities
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points GET listPendingPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points/{bucketId}/activate POST activatePendingPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/pending-points/{bucketId}/cancel POST cancelPendingPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/expiring-points GET listExpiringPoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/expiring-points/{bucketId}/expire POST expirePoints
/v2/loyalties/programs/{programId}/members/{memberId}/cards/{cardId}/transactions GET listCardTransactions
/v2/loyalties/programs/{programId}/members/{memberId}/rewards/purchases POST purchaseReward, GET listRewardPurchases
/v2/loyalties/examine/earning-rules POST examineLoyaltyEarnings
/v2/loyalties/earning-rules POST createEarningRule, GET listEarningRules
/v2/loyalties/earning-rules/{id} GET getEarningRule, PUT updateEarningRule, DELETE deleteEarningRule
/v2/loyalties/earning-rules/{id}/activate POST activateEarningRule
/v2/loyalties/earning-rules/{id}/deactivate POST deactivateEarningRule
/v2/loyalties/earning-rules/{id}/draft POST draftEarningRule
/v2/loyalties/earning-rules/{id}/activities GET listEarningRuleActivities
/v2/loyalties/tier-structures POST createTierStructure, GET listTierStructures
/v2/loyalties/tier-structures/{id} GET getTierStructure, PUT updateTierStructure, DELETE deleteTierStructure
/v2/loyalties/tier-structures/{id}/activate POST activateTierStructure
/v2/loyalties/tier-structures/{id}/deactivate POST deactivateTierStructure
/v2/loyalties/tier-structures/{id}/draft POST draftTierStructure
/v2/loyalties/tier-structures/{id}/activities GET listTierStructureActivities
/v2/loyalties/tier-structures/{id}/tiers POST createTier, GET listTiers
/v2/loyalties/tier-structures/{id}/tiers/{tierId} PUT updateTier, DELETE deleteTier
/v2/loyalties/incentives GET listIncentives, POST createIncentive
/v2/loyalties/incentives/{id} GET getIncentive, PUT updateIncentive, DELETE deleteIncentive
/v2/loyalties/incentives/{id}/activate POST activateIncentive
/v2/loyalties/incentives/{id}/draft POST draftIncentive
/v2/loyalties/incentives/{id}/activities GET listIncentiveActivities
/v2/loyalties/rewards GET listRewards, POST createReward
/v2/loyalties/rewards/{id} GET getReward, PUT updateReward, DELETE deleteReward
/v2/loyalties/rewards/{id}/activate POST activateReward
/v2/loyalties/rewards/{id}/deactivate POST deactivateReward
/v2/loyalties/rewards/{id}/draft POST draftReward
/v2/loyalties/rewards/{id}/activities GET listRewardActivities
`;
